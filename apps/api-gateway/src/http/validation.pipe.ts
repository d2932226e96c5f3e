import { Injectable, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';
import { DomainError, unsafeValueProblems, validatePayload } from '@docintel/contracts';

const PRIMITIVES = new Set<unknown>([String, Number, Boolean, Array, Object]);

/**
 * Validates @Body/@Query/@Param values into their contract DTO classes; failures become 400 with
 * details. Values without a DTO (a path parameter, a free-form body) are still refused when they
 * carry a NUL character or nest too deeply, so nothing reaches a service that PostgreSQL would
 * reject with a 500.
 */
@Injectable()
export class ContractValidationPipe implements PipeTransform {
  async transform(value: unknown, meta: ArgumentMetadata): Promise<unknown> {
    if (meta.type === 'custom') return value;
    const cls = meta.metatype;
    if (!cls || PRIMITIVES.has(cls)) {
      const problems = unsafeValueProblems(value, meta.data ?? '');
      if (problems.length) throw DomainError.invalid(problems);
      return value;
    }
    return validatePayload(cls as new () => object, value ?? {});
  }
}
