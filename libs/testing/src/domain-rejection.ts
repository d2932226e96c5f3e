import { DomainError } from '@docintel/contracts';

/** The DomainError `p` rejects with; the test fails when it resolves, or rejects with anything else. */
export async function domainRejection(p: Promise<unknown>): Promise<DomainError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(DomainError);
    return err as DomainError;
  }
  throw new Error('expected a DomainError');
}
