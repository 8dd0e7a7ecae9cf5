import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import { ROLE, type ApiKey, type CreatedApiKey } from '@portal/contracts';
import { useCurrentUser, useNotify, useParams } from '@portal/web-kit';
import { reasonOf } from '../../../api/answers';
import {
  useApiKeysQuery,
  useCreateApiKeyMutation,
  useRevokeApiKeyMutation,
  useSetApiRateLimitMutation,
} from '../../../api/apiKeysApi';
import { ShownOnceSecretDialog } from '../../../components/ShownOnceSecretDialog';
import { AdminPage } from '../../../layout/AdminPage';
import { ConfirmDeleteDialog } from '../../../layout/ConfirmDeleteDialog';
import { API_KEYS_TEXT as T } from '../../../texts';
import { ApiKeysTable } from '../components/ApiKeysTable';
import { CreateKeyDialog } from '../components/CreateKeyDialog';
import { RateLimitForm } from '../components/RateLimitForm';
import { keyBody, type KeyForm } from '../keyForm';

const failureOf = (text: string, error: unknown) => {
  const reason = reasonOf(error);
  return reason ? `${text}: ${reason}` : text;
};

/**
 * A group's API keys (issue 22): /services/admin/groups/:groupId/api-keys for administrators (from the
 * groups grid) and for the group's own admin; /services/admin/my-group/api-keys (the header menu) is the
 * group admin's own group. A group's admin is sent nowhere else: another group's page says so (and the
 * service answers 403 anyway).
 */
export function ApiKeysPage() {
  const { groupId: pathGroupId } = useParams();
  const { user } = useCurrentUser();
  const isAdmin = !!user?.roles.includes(ROLE.admin);
  const groupId = pathGroupId ?? user?.groupID ?? null;
  const allowed =
    !!groupId && (isAdmin || (!!user?.roles.includes(ROLE.groupAdmin) && user?.groupID === groupId));

  if (!groupId) return <NotAllowed text={T.noGroup} />;
  if (!allowed) return <NotAllowed text={T.notYourGroup} />;
  return <GroupKeys groupId={groupId} isAdmin={isAdmin} />;
}

function NotAllowed({ text }: { text: string }) {
  return (
    <AdminPage title={T.title}>
      <Alert severity="warning">{text}</Alert>
    </AdminPage>
  );
}

function GroupKeys({ groupId, isAdmin }: { groupId: string; isAdmin: boolean }) {
  const notify = useNotify();
  const list = useApiKeysQuery(groupId);
  const [createKey, creation] = useCreateApiKeyMutation();
  const [revokeKey] = useRevokeApiKeyMutation();
  const [setLimit, limitSaving] = useSetApiRateLimitMutation();
  const [creating, setCreating] = useState(false);
  const [createFailure, setCreateFailure] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);

  const create = async (form: KeyForm) => {
    setCreateFailure(null);
    const result = await createKey({ groupId, body: keyBody(form) });
    if (result.error) {
      setCreateFailure(failureOf(T.failedToCreate, result.error));
      return;
    }
    setCreating(false);
    setCreated(result.data);
  };

  const saveLimit = async (limit: number | null) => {
    const result = await setLimit({ groupId, body: { rateLimitPerMinute: limit } });
    notify(
      result.error
        ? { message: failureOf(T.failedToSetLimit, result.error), severity: 'error' }
        : { message: T.limitSaved, severity: 'success' },
    );
  };

  const data = list.data;
  return (
    <AdminPage
      title={T.title}
      subtitle={data ? T.subtitle(data.group.name) : undefined}
      backToAdmin={isAdmin}
      actions={
        data && (
          <Button
            variant="contained"
            onClick={() => {
              setCreateFailure(null);
              setCreating(true);
            }}
          >
            {T.createKey}
          </Button>
        )
      }
    >
      {list.isLoading && <CircularProgress aria-label={T.title} />}
      {list.error && <Alert severity="error">{failureOf(T.failedToLoad, list.error)}</Alert>}
      {data && (
        <Stack spacing={3}>
          <ApiKeysTable keys={data.keys} onRevoke={setRevoking} />
          <RateLimitForm
            key={`${data.rateLimitPerMinute}-${data.rateLimitIsDefault}`}
            limit={data.rateLimitPerMinute}
            isDefault={data.rateLimitIsDefault}
            editable={isAdmin}
            saving={limitSaving.isLoading}
            onSave={(limit) => void saveLimit(limit)}
          />
        </Stack>
      )}
      {creating && data && (
        <CreateKeyDialog
          groupServices={data.group.services}
          mayGiveRoles={isAdmin}
          failure={createFailure}
          creating={creation.isLoading}
          onCreate={(form) => void create(form)}
          onClose={() => setCreating(false)}
        />
      )}
      {created && (
        <ShownOnceSecretDialog
          title={T.newKeyTitle}
          warning={T.newKeyWarning}
          label={created.name}
          secret={created.key}
          onClose={() => setCreated(null)}
        />
      )}
      {revoking && (
        <ConfirmDeleteDialog
          title={T.revokeTitle}
          failureText={T.failedToRevoke}
          confirmLabel={T.revoke}
          onConfirm={() => revokeKey({ groupId, keyId: revoking._id }).unwrap()}
          onClose={() => setRevoking(null)}
        >
          {T.revokeBody(revoking.name, revoking.prefix)}
        </ConfirmDeleteDialog>
      )}
    </AdminPage>
  );
}
