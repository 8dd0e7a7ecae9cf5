import { useState } from 'react';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import type { ApiKey, CreatedApiKey } from '@portal/contracts';
import { useNotify } from '@portal/web-kit';
import { failureText } from '../../../api/answers';
import {
  useApiKeysQuery,
  useCreateApiKeyMutation,
  useRevokeApiKeyMutation,
  useSetApiRateLimitMutation,
} from '../../../api/apiKeysApi';
import { GroupIntegrationPage, ListLoadState } from '../../../components/GroupIntegrationPage';
import { ShownOnceSecretDialog } from '../../../components/ShownOnceSecretDialog';
import { AdminPage } from '../../../layout/AdminPage';
import { ConfirmDeleteDialog } from '../../../layout/ConfirmDeleteDialog';
import { API_KEYS_TEXT as T } from '../../../texts';
import { ApiKeysTable } from '../components/ApiKeysTable';
import { CreateKeyDialog } from '../components/CreateKeyDialog';
import { RateLimitForm } from '../components/RateLimitForm';
import { keyBody, type KeyForm } from '../keyForm';

/**
 * A group's API keys (issue 22): /services/admin/groups/:groupId/api-keys for administrators (from the
 * groups grid) and for the group's own admin; /services/admin/my-group/api-keys (the Integration tabs) is
 * the group admin's own group. Who may is GroupIntegrationPage's.
 */
export function ApiKeysPage() {
  return (
    <GroupIntegrationPage title={T.title} noGroup={T.noGroup} notYourGroup={T.notYourGroup}>
      {(access) => <GroupKeys {...access} />}
    </GroupIntegrationPage>
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
      setCreateFailure(failureText(T.failedToCreate, result.error));
      return;
    }
    setCreating(false);
    setCreated(result.data);
  };

  const saveLimit = async (limit: number | null) => {
    const result = await setLimit({ groupId, body: { rateLimitPerMinute: limit } });
    notify(
      result.error
        ? { message: failureText(T.failedToSetLimit, result.error), severity: 'error' }
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
      <ListLoadState
        label={T.title}
        failedToLoad={T.failedToLoad}
        isLoading={list.isLoading}
        error={list.error}
      />
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
