import { plainToInstance, type ClassConstructor } from 'class-transformer';
import { validate, type ValidationError } from 'class-validator';
import { DomainError, type ErrorDetail } from './errors';

/** Flattens class-validator errors into `{ field, problem }` pairs with dotted field paths. */
export function toErrorDetails(errors: ValidationError[], parent = ''): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const e of errors) {
    const field = parent ? `${parent}.${e.property}` : e.property;
    if (e.constraints) {
      for (const message of Object.values(e.constraints)) {
        // class-validator's default messages start with the property name; the field says that already.
        const problem = message.startsWith(`${e.property} `) ? message.slice(e.property.length + 1) : message;
        details.push({ field, problem });
      }
    }
    if (e.children?.length) details.push(...toErrorDetails(e.children, field));
  }
  return details;
}

/**
 * Turns an untrusted plain object into a validated DTO instance, or throws a VALIDATION_FAILED
 * DomainError naming every failing field. Used at the HTTP edge and by every message consumer.
 */
export async function validatePayload<T extends object>(
  cls: ClassConstructor<T>,
  plain: unknown,
  opts: { forbidUnknown?: boolean } = {},
): Promise<T> {
  if (plain === null || typeof plain !== 'object' || Array.isArray(plain)) {
    throw DomainError.invalid([{ field: '(body)', problem: 'must be a JSON object' }]);
  }
  const instance = plainToInstance(cls, plain);
  const errors = await validate(instance, {
    whitelist: true,
    forbidNonWhitelisted: opts.forbidUnknown ?? false,
    validationError: { target: false, value: false },
  });
  if (errors.length) throw DomainError.invalid(toErrorDetails(errors));
  return instance;
}
