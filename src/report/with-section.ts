/** Adds a section to a report page, before its end; the page as it was when the section is ''. */
export function withSection(html: string, section: string): string {
  const end = html.lastIndexOf('</body>');
  return section && end >= 0 ? `${html.slice(0, end)}${section}\n${html.slice(end)}` : html;
}
