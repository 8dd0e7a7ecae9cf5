import Box from '@mui/material/Box';

/**
 * A chart of @portal/charts in the page. The string is built by the library, which escapes every text it
 * writes, from the report's numbers: no user HTML goes in.
 */
export function SvgChart({ svg, label }: { svg: string; label: string }) {
  return (
    <Box
      component="figure"
      aria-label={label}
      sx={{ m: 0, '& svg': { maxWidth: '100%', height: 'auto', display: 'block' } }}
      dangerouslySetInnerHTML={{ __html: svg }}
    />
  );
}
