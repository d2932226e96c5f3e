import { CreateIdentity1732100000000 } from './1732100000000-create-identity';

export const migrations = [CreateIdentity1732100000000];
