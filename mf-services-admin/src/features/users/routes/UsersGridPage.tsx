import { lazy, Suspense } from 'react';
import { AdminPage } from '../../../layout/AdminPage';
import { GridCodeLoading } from '@portal/web-kit/grid';

// The grid's code (x-data-grid) loads after the page has painted (web-kit/grid's GridCodeLoading meanwhile).
const UsersGrid = lazy(async () => ({ default: (await import('../components/UsersGrid')).UsersGrid }));

/** /services/admin/users (spec 03 "Users grid"). */
export function UsersGridPage() {
  return (
    <AdminPage
      title="Users"
      backToAdmin
      subtitle="Double-click a name, group or the services to change them; tick a box to change a role. Every change is saved at once."
    >
      <Suspense fallback={<GridCodeLoading />}>
        <UsersGrid />
      </Suspense>
    </AdminPage>
  );
}
