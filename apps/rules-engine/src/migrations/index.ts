import { CreateRules1732200000000 } from './1732200000000-create-rules';

export const migrations = [CreateRules1732200000000];
