import 'reflect-metadata';
import { runService } from '@docintel/runtime';
import { gatewayDefinition } from './gateway';

void runService(gatewayDefinition);
