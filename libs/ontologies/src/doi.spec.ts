import { findDoi, findDois, normaliseDoi } from './doi';
import { anInput } from './testing/factories';

describe('doi', () => {
  it('normalises to lower case without trailing punctuation', () => {
    expect(normaliseDoi('10.1145/1542476.1542528.')).toBe('10.1145/1542476.1542528');
    expect(normaliseDoi('10.1000/ABC(2021)01);')).toBe('10.1000/abc(2021)01');
    expect(normaliseDoi('10.1000/xyz)')).toBe('10.1000/xyz');
  });

  it('finds DOIs written bare, with doi: or as a doi.org link', () => {
    const text = 'See doi:10.1000/ABC.1, https://doi.org/10.18653/v1/2020.acl-main.447 and (10.1038/nature14539).';
    expect(findDois(text).map((d) => d.doi)).toEqual(['10.1000/abc.1', '10.18653/v1/2020.acl-main.447', '10.1038/nature14539']);
  });

  it('takes the first DOI before the references and says where it was', () => {
    const text = 'A Paper\n\nDOI: 10.1145/3397271.3401075\n\nBody.\n\nReferences\n\n[1] X. 10.1000/cited.1';
    expect(findDoi(anInput(), text)).toEqual({ value: '10.1145/3397271.3401075', explanation: 'DOI pattern in text at offset 14' });
  });

  it('ignores DOIs that only appear in the references, and funder ids', () => {
    expect(findDoi(anInput(), 'Body.\n\nReferences\n\n[1] 10.1000/cited.1')).toBeUndefined();
    expect(findDoi(anInput(), 'Funded by 10.13039/100000001 (NSF).')).toBeUndefined();
  });

  it('prefers a DOI the embedded subject declares', () => {
    const input = anInput({ embeddedMetadata: { subject: 'Proc. X, doi:10.1145/1.2' } });
    expect(findDoi(input, 'text 10.9999/other')).toEqual({ value: '10.1145/1.2', explanation: 'PDF metadata Subject' });
  });
});
