import { Suspense } from 'react';
import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import { NotFoundMap } from '@portal/web-kit';
import { PageLoading } from '../app/PageLoading';

/** /404 and every unknown path (spec 01 §2): a map with random markers (spec 03). */
export function NotFoundPage() {
  return (
    <Container maxWidth="lg" sx={{ py: 2 }}>
      <Suspense
        fallback={
          <>
            <Typography variant="h4" component="h1" sx={{ p: 2 }}>
              Page not found
            </Typography>
            <PageLoading label="Loading the map" />
          </>
        }
      >
        <NotFoundMap />
      </Suspense>
    </Container>
  );
}
