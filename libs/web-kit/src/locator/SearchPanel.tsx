import type { ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { SearchResultItem } from '@portal/contracts';
import { useSearchQuery, useSearchPostalQuery } from './locatorSearchApi';
import {
  AUTOCOMPLETE_DEBOUNCE_MS,
  AUTOCOMPLETE_MIN_CHARS,
  SEARCH_OPTION_IDS,
  SEARCH_OPTIONS,
} from './searchOptions';
import { offersCantLocate } from './searchState';
import { SEARCH_TEXT } from './texts';
import { useDebouncedValue } from '../hooks/useDebouncedValue';
import { useAvsOptions, type LocatorSearch } from './useLocatorSearch';

export interface SearchPanelProps {
  search: LocatorSearch;
  /** Shown after a failed or empty search (spec 01 §2): the request tool's Can't Locate action. */
  cantLocate?: ReactNode;
}

/** The wizard: the options, then the chosen option's box with suggestions, and the result list. */
export function SearchPanel({ search, cantLocate }: SearchPanelProps) {
  const { state } = search;
  const option = state.option ? SEARCH_OPTIONS[state.option] : null;

  if (!option) {
    return (
      <Stack spacing={1} data-testid="search-wizard">
        <TextField size="small" disabled placeholder={SEARCH_TEXT.choosePlaceholder} fullWidth />
        <List dense aria-label="Search options">
          {SEARCH_OPTION_IDS.map((id) => (
            // Each button in its own <li>: a list holds list items only (axe 'list', WCAG 1.3.1).
            <ListItem key={id} disablePadding>
              <ListItemButton onClick={() => search.chooseOption(id)}>
                <ListItemText primary={SEARCH_OPTIONS[id].title} secondary={SEARCH_OPTIONS[id].format} />
              </ListItemButton>
            </ListItem>
          ))}
        </List>
      </Stack>
    );
  }

  return (
    <Stack spacing={1} data-testid="search-wizard">
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
        <Typography variant="subtitle1" component="h2">
          {option.title}
        </Typography>
        <Button size="small" onClick={search.reset}>
          {SEARCH_TEXT.changeOption}
        </Button>
      </Stack>
      <Typography variant="body2" color="text.secondary">
        {option.hint}
      </Typography>
      {option.typed ? (
        <Box sx={{ position: 'relative' }}>
          <Stack direction="row" spacing={1}>
            <TextField
              size="small"
              fullWidth
              autoFocus
              label={option.title}
              placeholder={option.placeholder}
              helperText={option.format}
              value={state.query}
              onChange={(event) => search.setQuery(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === 'Enter') event.preventDefault();
                search.handleKey(event.key);
              }}
              slotProps={{ htmlInput: { 'aria-label': option.title, autoComplete: 'off' } }}
            />
            <IconButton
              aria-label={SEARCH_TEXT.search}
              onClick={() => void search.runSearch()}
              sx={{ alignSelf: 'start' }}
            >
              <span aria-hidden>⌕</span>
            </IconButton>
          </Stack>
          <Suggestions search={search} />
        </Box>
      ) : (
        <TextField
          size="small"
          disabled
          placeholder={option.placeholder}
          helperText={option.format}
          fullWidth
        />
      )}
      {state.status === 'searching' && <LinearProgress aria-label={SEARCH_TEXT.searching} />}
      {state.status === 'failed' && <Alert severity="error">{SEARCH_TEXT.geocoderDown}</Alert>}
      {state.status === 'done' && state.results.length === 0 && (
        <Alert severity="warning">{SEARCH_TEXT.noResults}</Alert>
      )}
      {offersCantLocate(state) && cantLocate}
      <ResultList
        results={state.results}
        selectedId={state.selected?.item?.id ?? null}
        onSelect={search.select}
      />
    </Stack>
  );
}

/** Suggestions while typing (debounced, from POST /api/avs/search or searchPostal); a click selects. */
function Suggestions({ search }: { search: LocatorSearch }) {
  const { state } = search;
  const options = useAvsOptions();
  const typed = useDebouncedValue(state.query.trim(), AUTOCOMPLETE_DEBOUNCE_MS);
  const option = state.option ? SEARCH_OPTIONS[state.option] : null;
  // Suggestions only while typing: once a search has run (results or failure), the result list shows.
  const wanted =
    !!option?.flags && typed.length >= AUTOCOMPLETE_MIN_CHARS && state.status === 'idle' && !state.selected;
  const postal = state.option === 'postal';
  const words = useSearchQuery(
    { query: typed, searchOptions: option?.flags, options },
    { skip: !wanted || postal },
  );
  const codes = useSearchPostalQuery({ query: typed, options }, { skip: !wanted || !postal });
  const answer = postal ? codes.data : words.data;
  const items = wanted && answer?.success && typed === state.query.trim() ? answer.result.slice(0, 8) : [];
  if (!items.length) return null;
  return (
    <Paper elevation={4} sx={{ position: 'absolute', left: 0, right: 48, top: 40, zIndex: 10 }}>
      <List
        dense
        aria-label={SEARCH_TEXT.suggestions}
        subheader={<ListSubheader>{SEARCH_TEXT.suggestions}</ListSubheader>}
      >
        {items.map((item) => (
          <ListItem key={`${item.type}:${item.id}`} disablePadding>
            <ListItemButton
              onClick={() => {
                search.setQuery(item.formatted_address);
                search.select(item);
              }}
            >
              <ListItemText primary={item.formatted_address} />
            </ListItemButton>
          </ListItem>
        ))}
      </List>
    </Paper>
  );
}

export interface ResultListProps {
  results: SearchResultItem[];
  selectedId: string | null;
  onSelect: (item: SearchResultItem) => void;
}

/** The search results, best first; the chosen one is highlighted. */
export function ResultList({ results, selectedId, onSelect }: ResultListProps) {
  if (!results.length) return null;
  return (
    <List
      dense
      aria-label="Search results"
      subheader={<ListSubheader disableSticky>{SEARCH_TEXT.results(results.length)}</ListSubheader>}
    >
      {results.map((item) => (
        <ListItem key={`${item.type}:${item.id}`} disablePadding>
          <ListItemButton selected={item.id === selectedId} onClick={() => onSelect(item)}>
            <ListItemText primary={item.formatted_address} secondary={item.type} />
          </ListItemButton>
        </ListItem>
      ))}
    </List>
  );
}
