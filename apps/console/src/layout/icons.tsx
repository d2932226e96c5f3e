/** Small inline icons (no icon font: the console must render the same wherever it is opened). */
const base = {
  width: 16,
  height: 16,
  viewBox: '0 0 24 24',
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 2,
  'aria-hidden': true,
} as const;

export function FolderIcon() {
  return (
    <svg {...base} style={{ verticalAlign: '-3px', marginRight: 6, color: 'var(--mantine-color-yellow-7)' }}>
      <path d="M3 6a1 1 0 0 1 1-1h5l2 2h9a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1z" fill="currentColor" fillOpacity={0.25} />
    </svg>
  );
}

export function FileIcon() {
  return (
    <svg {...base} style={{ verticalAlign: '-3px', marginRight: 6, color: 'var(--mantine-color-gray-6)' }}>
      <path d="M6 3h8l4 4v14H6z" />
      <path d="M14 3v4h4" />
    </svg>
  );
}
