import { AdminPage } from '../../../layout/AdminPage';
import { lazyGrid } from '@portal/web-kit/grid';

const UsersGrid = lazyGrid(async () => (await import('../components/UsersGrid')).UsersGrid);

/** /services/admin/users (spec 03 "Users grid"). */
export function UsersGridPage() {
  return (
    <AdminPage
      title="Users"
      backToAdmin
      subtitle="Double-click a name, group or the services to change them; tick a box to change a role. Every change is saved at once."
    >
      <UsersGrid />
    </AdminPage>
  );
}
