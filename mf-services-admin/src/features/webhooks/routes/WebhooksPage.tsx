import { useState } from 'react';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { WebhookEndpoint } from '@portal/contracts';
import { useNotify } from '@portal/web-kit';
import { failureText } from '../../../api/answers';
import { GroupIntegrationPage, ListLoadState } from '../../../components/GroupIntegrationPage';
import { ShownOnceSecretDialog } from '../../../components/ShownOnceSecretDialog';
import { AdminPage } from '../../../layout/AdminPage';
import { ConfirmDeleteDialog } from '../../../layout/ConfirmDeleteDialog';
import { WEBHOOKS_TEXT as T } from '../../../texts';
import { DeliveriesTable } from '../components/DeliveriesTable';
import { EndpointDialog, type EndpointForm } from '../components/EndpointDialog';
import { EndpointsTable, type EndpointAction } from '../components/EndpointsTable';
import {
  useCreateWebhookMutation,
  useDeleteWebhookMutation,
  useRotateWebhookSecretMutation,
  useTestWebhookMutation,
  useUpdateWebhookMutation,
  useWebhooksQuery,
} from '../webhooksApi';

/**
 * A group's webhooks (issue 22): /services/admin/groups/:groupId/webhooks, for administrators and for the
 * group's own admin; /services/admin/my-group/webhooks (the Integration tabs) is the user's own group.
 * Who may is GroupIntegrationPage's.
 */
export function WebhooksPage() {
  return (
    <GroupIntegrationPage title={T.title} noGroup={T.noGroup} notYourGroup={T.notYourGroup}>
      {(access) => <GroupWebhooks {...access} />}
    </GroupIntegrationPage>
  );
}

type Dialog =
  | { kind: 'create' }
  | { kind: 'edit'; endpoint: WebhookEndpoint }
  | { kind: 'secret'; secret: string; rotated: boolean }
  | { kind: 'rotate'; endpoint: WebhookEndpoint }
  | { kind: 'delete'; endpoint: WebhookEndpoint }
  | null;

function GroupWebhooks({ groupId, isAdmin }: { groupId: string; isAdmin: boolean }) {
  const notify = useNotify();
  const list = useWebhooksQuery(groupId);
  const [createWebhook, creation] = useCreateWebhookMutation();
  const [updateWebhook, update] = useUpdateWebhookMutation();
  const [deleteWebhook] = useDeleteWebhookMutation();
  const [rotateSecret] = useRotateWebhookSecretMutation();
  const [testWebhook] = useTestWebhookMutation();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [showing, setShowing] = useState<string | null>(null);

  const open = (next: Dialog) => {
    setFailure(null);
    setDialog(next);
  };

  const save = async (form: EndpointForm) => {
    setFailure(null);
    if (dialog?.kind === 'edit') {
      const result = await updateWebhook({ groupId, endpointId: dialog.endpoint._id, body: form });
      if (result.error) return setFailure(failureText(T.failedToSave, result.error));
      return setDialog(null);
    }
    const result = await createWebhook({ groupId, body: form });
    if (result.error) return setFailure(failureText(T.failedToSave, result.error));
    setShowing(result.data._id);
    setDialog({ kind: 'secret', secret: result.data.secret, rotated: false });
  };

  const act = async (endpoint: WebhookEndpoint, action: EndpointAction) => {
    const args = { groupId, endpointId: endpoint._id };
    switch (action) {
      case 'deliveries':
        return setShowing(showing === endpoint._id ? null : endpoint._id);
      case 'edit':
        return open({ kind: 'edit', endpoint });
      case 'rotate':
        return open({ kind: 'rotate', endpoint });
      case 'delete':
        return open({ kind: 'delete', endpoint });
      case 'test': {
        const result = await testWebhook(args);
        setShowing(endpoint._id);
        return notify(
          result.error
            ? { message: failureText(T.failedToTest, result.error), severity: 'error' }
            : { message: T.testSent, severity: 'success' },
        );
      }
      case 'enable':
      case 'disable': {
        const result = await updateWebhook({ ...args, body: { enabled: action === 'enable' } });
        return notify(
          result.error
            ? { message: failureText(T.failedToSave, result.error), severity: 'error' }
            : { message: action === 'enable' ? T.enabled : T.disabled, severity: 'success' },
        );
      }
    }
  };

  const data = list.data;
  const shown = data?.endpoints.find((endpoint) => endpoint._id === showing) ?? null;
  return (
    <AdminPage
      title={T.title}
      subtitle={data ? T.subtitle(data.group.name) : undefined}
      backToAdmin={isAdmin}
      actions={
        data && (
          <Button variant="contained" onClick={() => open({ kind: 'create' })}>
            {T.addEndpoint}
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
          <EndpointsTable
            endpoints={data.endpoints}
            onAction={(endpoint, action) => void act(endpoint, action)}
          />
          {shown && (
            <Stack spacing={1} component="section" aria-labelledby="deliveries-title">
              <Typography variant="h2" id="deliveries-title" sx={{ fontSize: '1.25rem' }}>
                {T.deliveries.title(shown.url)}
              </Typography>
              <DeliveriesTable groupId={groupId} endpoint={shown} />
            </Stack>
          )}
        </Stack>
      )}
      {(dialog?.kind === 'create' || dialog?.kind === 'edit') && (
        <EndpointDialog
          editing={dialog.kind === 'edit' ? dialog.endpoint : null}
          failure={failure}
          saving={creation.isLoading || update.isLoading}
          onSave={(form) => void save(form)}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'secret' && (
        <ShownOnceSecretDialog
          title={dialog.rotated ? T.secret.rotatedTitle : T.secret.createdTitle}
          warning={T.secret.warning}
          label={T.secret.label}
          secret={dialog.secret}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'rotate' && (
        <ConfirmDeleteDialog
          title={T.rotateTitle}
          failureText={T.failedToRotate}
          confirmLabel={T.rotate}
          onConfirm={async () => {
            const rotated = await rotateSecret({ groupId, endpointId: dialog.endpoint._id }).unwrap();
            setDialog({ kind: 'secret', secret: rotated.secret, rotated: true });
          }}
          onClose={() => setDialog((current) => (current?.kind === 'rotate' ? null : current))}
        >
          {T.rotateBody(dialog.endpoint.url)}
        </ConfirmDeleteDialog>
      )}
      {dialog?.kind === 'delete' && (
        <ConfirmDeleteDialog
          title={T.deleteTitle}
          failureText={T.failedToDelete}
          onConfirm={() => deleteWebhook({ groupId, endpointId: dialog.endpoint._id }).unwrap()}
          onClose={() => setDialog(null)}
        >
          {T.deleteBody(dialog.endpoint.url)}
        </ConfirmDeleteDialog>
      )}
    </AdminPage>
  );
}
