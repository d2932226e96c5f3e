import { CreateProviders1732100000000 } from './1732100000000-create-providers';

export const migrations = [CreateProviders1732100000000];
