import { findLanguage } from './language';
import { anInput, PROSE } from './testing/factories';

const GERMAN = [
  'Die Erkennung von Tabellenstrukturen verwandelt das Bild einer Tabelle in Zeilen, Spalten und Zellen. Das ist schwierig, weil Tabellen in gescannten Dokumenten verbundene Zellen haben.',
  'Wir schlagen ein Modell vor, das die Grenzen der Zellen direkt vorhersagt und dabei auf einem einzigen Prozessorkern schnell genug bleibt.',
].join('\n\n');

describe('language', () => {
  it('detects English and German prose', () => {
    expect(findLanguage(anInput(), PROSE)?.value).toBe('en');
    expect(findLanguage(anInput(), GERMAN)?.value).toBe('de');
  });

  it('is not thrown off by tables, acronyms and a list of language names', () => {
    const noise =
      '| - | - | - |\n| OTSL | HTML | TEDs |\n\nDeutsch Español Français Italiano Nederlands Polski Português Русский Svenska Türkçe';
    const found = findLanguage(anInput(), `${noise}\n\n${PROSE}`);
    expect(found?.value).toBe('en');
    expect(found?.explanation).toMatch(/^tinyld language detection on the first \d+ characters/);
  });

  it('uses the declared language when the text is too short, and nothing when neither says', () => {
    expect(findLanguage(anInput({ embeddedMetadata: { language: 'fr-FR' } }), 'Bonjour')).toEqual({
      value: 'fr',
      explanation: 'PDF metadata Language',
    });
    expect(findLanguage(anInput(), '12 34')).toBeUndefined();
  });
});
