import Alert, { type AlertColor } from '@mui/material/Alert';

/** One message as a sentence, several as a list (spec 01 §8: "a list of messages or a single message"). */
export function MessageList({
  messages,
  severity = 'error',
}: {
  messages: readonly string[];
  severity?: AlertColor;
}) {
  if (messages.length === 0) return null;
  return (
    <Alert severity={severity} sx={{ mt: 2 }}>
      {messages.length === 1 ? (
        messages[0]
      ) : (
        <ul style={{ margin: 0, paddingLeft: '1.2em' }}>
          {messages.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      )}
    </Alert>
  );
}
