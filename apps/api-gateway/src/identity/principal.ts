/** Who a request acts as, once its token has been checked. */
export interface Principal {
  tokenId: string;
  userId: string;
  email: string;
  namespaceId: string;
  namespaceName: string;
}
