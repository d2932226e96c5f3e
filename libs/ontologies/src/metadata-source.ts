/** How a user would call the metadata a file of this media type embeds, for explanations. */
export function embeddedMetadataLabel(mediaType: string): string {
  const type = mediaType.toLowerCase();
  if (type === 'application/pdf') return 'PDF metadata';
  if (type.includes('wordprocessingml') || type === 'application/msword') return 'Word document properties';
  if (type.includes('spreadsheetml') || type.includes('ms-excel') || type.includes('opendocument.spreadsheet')) {
    return 'spreadsheet properties';
  }
  if (type.includes('html')) return 'HTML metadata';
  if (type.includes('xml')) return 'XML metadata';
  if (type.startsWith('image/')) return 'image metadata';
  return 'embedded metadata';
}
