import { IsString, MaxLength, MinLength } from 'class-validator';

/**
 * A string of 1 to `maxChars` characters, with the messages the API gives for each rule. The rules
 * are registered in the order the three stacked decorators would register them (bottom first), so
 * a value that breaks several reports them as before.
 */
export function IsNonEmptyText(maxChars: number): PropertyDecorator {
  return (target, key) => {
    MaxLength(maxChars, { message: `must be at most ${maxChars} characters` })(target, key);
    MinLength(1, { message: 'must not be empty' })(target, key);
    IsString({ message: 'must be a string' })(target, key);
  };
}
