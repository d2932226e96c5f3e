import { Injectable, Param, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';
import { DomainError } from '@docintel/contracts';

/** Any UUID (the reference API's ids are `format: uuid`; provider ids may be of any version). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const UUID_PROBLEM = 'must be a UUID';

/**
 * Refuses a path parameter that is not a UUID with 400 naming the parameter: such an id can name
 * nothing, and the client's mistake is better told than hidden behind a 404.
 */
@Injectable()
export class UuidParamPipe implements PipeTransform<unknown, string> {
  transform(value: unknown, meta: ArgumentMetadata): string {
    if (typeof value === 'string' && UUID.test(value)) return value;
    throw DomainError.invalid([{ field: meta.data ?? 'id', problem: UUID_PROBLEM }]);
  }
}

/** `@UuidParam('id')`: the id path parameter, checked to be a UUID. Use it for every resource id in a path. */
export const UuidParam = (name: string): ParameterDecorator => Param(name, UuidParamPipe);
