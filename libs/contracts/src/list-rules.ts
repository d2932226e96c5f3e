import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsObject, IsString, IsUUID, MaxLength, ValidateNested } from 'class-validator';

/*
 * The rules of the lists and nested objects of request bodies, with the messages the API gives for
 * each. Like IsNonEmptyText, each registers its rules in the order the stacked decorators it stands
 * for would (bottom first), so a value that breaks several reports them as before. Whether the
 * field is required (IsDefined) or optional (IsOptional) stays on the field, above these.
 */

type Item = new (...args: never[]) => object;

/** One to `max` objects, each validated as `item` ("must have at least one question"). */
export function IsNestedList(item: Item, max: number, noun: string, nouns = `${noun}s`): PropertyDecorator {
  return (target, key) => {
    Type(() => item)(target, key);
    ValidateNested({ each: true })(target, key);
    ArrayMaxSize(max, { message: `must have at most ${max} ${nouns}` })(target, key);
    ArrayMinSize(1, { message: `must have at least one ${noun}` })(target, key);
    IsArray({ message: 'must be an array' })(target, key);
  };
}

/** An object (not an array or a scalar) validated as `type`. */
export function IsNestedObject(type: Item): PropertyDecorator {
  return (target, key) => {
    Type(() => type)(target, key);
    ValidateNested()(target, key);
    IsObject({ message: 'must be an object' })(target, key);
  };
}

/** Up to `max` strings of up to `maxChars` characters each (enum values, allowed values). */
export function IsTextList(max: number, maxChars: number): PropertyDecorator {
  return (target, key) => {
    MaxLength(maxChars, { each: true, message: `must be at most ${maxChars} characters each` })(target, key);
    IsString({ each: true, message: 'must be strings' })(target, key);
    ArrayMaxSize(max, { message: `must have at most ${max} values` })(target, key);
    IsArray({ message: 'must be an array' })(target, key);
  };
}

/** Up to `max` ids, each a UUID (the file and collection ids of a job's files). */
export function IsIdList(max: number): PropertyDecorator {
  return (target, key) => {
    IsUUID('all', { each: true, message: 'must be UUIDs' })(target, key);
    ArrayMaxSize(max, { message: `must have at most ${max} ids` })(target, key);
    IsArray({ message: 'must be an array' })(target, key);
  };
}
