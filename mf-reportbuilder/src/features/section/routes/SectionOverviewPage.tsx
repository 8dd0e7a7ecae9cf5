export function SectionOverviewPage() {
  return null;
}
