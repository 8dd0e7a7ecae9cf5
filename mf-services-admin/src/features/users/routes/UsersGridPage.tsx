import { AdminPage } from '../../../layout/AdminPage';
import { UsersGrid } from '../components/UsersGrid';

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
