import { Injectable, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';
import { validatePayload } from '@docintel/contracts';

const PRIMITIVES = new Set<unknown>([String, Number, Boolean, Array, Object]);

/** Validates @Body/@Query/@Param values into their contract DTO classes; failures become 400 with details. */
@Injectable()
export class ContractValidationPipe implements PipeTransform {
  async transform(value: unknown, meta: ArgumentMetadata): Promise<unknown> {
    const cls = meta.metatype;
    if (!cls || PRIMITIVES.has(cls) || meta.type === 'custom') return value;
    return validatePayload(cls as new () => object, value ?? {});
  }
}
