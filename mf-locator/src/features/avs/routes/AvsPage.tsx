import { useState } from 'react';
import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { AVS_TEXT } from '../../../texts';
import { BatchValidation } from '../components/BatchValidation';
import { CantLocateForm } from '../components/CantLocateForm';
import { SingleValidation } from '../components/SingleValidation';

type AvsTab = 'single' | 'batch' | 'cantLocate';
const TABS: AvsTab[] = ['single', 'batch', 'cantLocate'];

/**
 * Address validation (/avs): a typed address, a CSV file of them, and the can't-locate request (spec 03
 * "Can't-locate address screen"). An address not found offers the can't-locate form with the text kept.
 */
export function AvsPage() {
  const [tab, setTab] = useState<AvsTab>('single');
  const [cantLocateAddress, setCantLocateAddress] = useState('');
  // Each panel keeps its state while another is shown (a batch runs on behind the form).
  const panel = (name: AvsTab) => ({
    role: 'tabpanel',
    id: `avs-panel-${name}`,
    'aria-labelledby': `avs-tab-${name}`,
    hidden: tab !== name,
    sx: { pt: 2 },
  });
  return (
    <Container maxWidth="xl" sx={{ py: 3 }}>
      <Typography variant="h1" sx={{ fontSize: '1.75rem', mb: 2 }}>
        {AVS_TEXT.title}
      </Typography>
      <Tabs value={tab} onChange={(_event, value: AvsTab) => setTab(value)} aria-label={AVS_TEXT.title}>
        {TABS.map((name) => (
          <Tab
            key={name}
            value={name}
            label={AVS_TEXT.tabs[name]}
            id={`avs-tab-${name}`}
            aria-controls={`avs-panel-${name}`}
          />
        ))}
      </Tabs>
      <Box {...panel('single')}>
        <SingleValidation
          onCantLocate={(address) => {
            setCantLocateAddress(address);
            setTab('cantLocate');
          }}
        />
      </Box>
      <Box {...panel('batch')}>
        <BatchValidation />
      </Box>
      <Box {...panel('cantLocate')}>
        <CantLocateForm key={cantLocateAddress} initialAddress={cantLocateAddress} />
      </Box>
    </Container>
  );
}
