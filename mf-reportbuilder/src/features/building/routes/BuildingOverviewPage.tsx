export function BuildingOverviewPage() {
  return null;
}
