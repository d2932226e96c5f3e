import { CONCEPT_NAMESPACE, URL_NAMESPACE, uuidV5 } from './uuid';

describe('uuidV5', () => {
  it('matches the RFC 9562 / Python uuid5 reference value', () => {
    // python3 -c "import uuid; print(uuid.uuid5(uuid.NAMESPACE_URL, 'https://example.com'))"
    expect(uuidV5('https://example.com', URL_NAMESPACE)).toBe('4fd35a71-71ef-5a55-a9d9-aa75c889a6d0');
  });

  it('is stable and differs per name', () => {
    expect(uuidV5('keyphrase:table structure', CONCEPT_NAMESPACE)).toBe(uuidV5('keyphrase:table structure', CONCEPT_NAMESPACE));
    expect(uuidV5('a', CONCEPT_NAMESPACE)).not.toBe(uuidV5('b', CONCEPT_NAMESPACE));
    expect(uuidV5('a', CONCEPT_NAMESPACE)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
