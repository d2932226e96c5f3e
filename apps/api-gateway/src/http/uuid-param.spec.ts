import { DomainError, ErrorCode } from '@docintel/contracts';
import { UuidParamPipe } from './uuid-param';

describe('UuidParamPipe', () => {
  const pipe = new UuidParamPipe();
  const meta = (data: string) => ({ type: 'param' as const, data, metatype: String });

  it.each(['3f0e7a43-6c8e-4a4e-9d1e-9f4b0d2f7c11', '3F0E7A43-6C8E-4A4E-9D1E-9F4B0D2F7C11', '00000000-0000-0000-0000-000000000000'])(
    'passes %s through',
    (id) => {
      expect(pipe.transform(id, meta('id'))).toBe(id);
    },
  );

  it.each([
    'not-a-uuid',
    'xyz',
    '',
    '3f0e7a43-6c8e-4a4e-9d1e-9f4b0d2f7c1',
    '3f0e7a43-6c8e-4a4e-9d1e-9f4b0d2f7c11 ',
    '{3f0e7a43-6c8e-4a4e-9d1e-9f4b0d2f7c11}',
  ])('refuses %p with 400 naming the parameter', (id) => {
    let caught: unknown;
    try {
      pipe.transform(id, meta('fileId'));
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(DomainError);
    expect(caught).toMatchObject({ code: ErrorCode.VALIDATION_FAILED, details: [{ field: 'fileId', problem: 'must be a UUID' }] });
  });
});
