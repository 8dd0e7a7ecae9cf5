import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';

export interface SearchLayoutProps {
  /** The page's heading, at the top of the side panel. */
  title: string;
  /** The side panel under the heading (search, results, forms). */
  panel: ReactNode;
  /** Right of the panel: the map (and what goes with it). */
  children: ReactNode;
}

/** /savi and /locate: a 400-pixel side panel with the page's heading, the map filling the rest. */
export function SearchLayout({ title, panel, children }: SearchLayoutProps) {
  return (
    <Box sx={{ display: 'flex', height: 'calc(100vh - 64px)', minHeight: 480 }}>
      <Paper
        square
        elevation={1}
        sx={{
          width: 400,
          flexShrink: 0,
          overflow: 'auto',
          p: 2,
          display: 'flex',
          flexDirection: 'column',
          gap: 2,
        }}
      >
        <Typography variant="h6" component="h1">
          {title}
        </Typography>
        {panel}
      </Paper>
      {children}
    </Box>
  );
}
