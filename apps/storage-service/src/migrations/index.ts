import { CreateProviders1732100000000 } from './1732100000000-create-providers';
import { CreateSecrets1732300000000 } from './1732300000000-create-secrets';
import { AddProviderNamespaceRoots1732300000001 } from './1732300000001-add-provider-namespace-roots';

export const migrations = [CreateProviders1732100000000, CreateSecrets1732300000000, AddProviderNamespaceRoots1732300000001];
