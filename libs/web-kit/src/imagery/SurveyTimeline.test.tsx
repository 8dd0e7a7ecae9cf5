import { useState } from 'react';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { SURVEY_API, type Survey } from '@portal/contracts';
import { PortalProviders } from '../PortalProviders';
import { createPortalStore } from '../store/store';
import { SurveyTimeline } from './SurveyTimeline';
import { surveyIndexAfterKey } from './surveyKeys';
import { CaptureDate, captureDateText } from './CaptureDate';

const surveys: Survey[] = [
  { id: 9, capturedOn: '2026-02-03', kind: 'high_resolution', provider: 'Built-in' },
  { id: 7, capturedOn: '2021-08-20', kind: 'ortho', provider: 'Built-in' },
  { id: 4, capturedOn: '2019-03-14', kind: 'high_resolution', provider: 'Built-in' },
];
const point = { lat: -33.936, lng: 18.8606 };

function Timeline({ onChange }: { onChange: (survey: Survey) => void }) {
  const [value, setValue] = useState<number | null>(null);
  return (
    <SurveyTimeline
      point={point}
      surveys={surveys}
      value={value}
      onChange={(survey) => {
        setValue(survey.id);
        onChange(survey);
      }}
    />
  );
}

const renderIn = (ui: React.ReactNode) =>
  render(<PortalProviders store={createPortalStore()}>{ui}</PortalProviders>);

describe('surveyIndexAfterKey', () => {
  it('steps older with Right/Down, newer with Left/Up, jumps with Home/End, stops at the ends', () => {
    expect(surveyIndexAfterKey(3, 0, 'ArrowRight')).toBe(1);
    expect(surveyIndexAfterKey(3, 1, 'ArrowDown')).toBe(2);
    expect(surveyIndexAfterKey(3, 2, 'ArrowRight')).toBeNull();
    expect(surveyIndexAfterKey(3, 2, 'ArrowUp')).toBe(1);
    expect(surveyIndexAfterKey(3, 0, 'ArrowLeft')).toBeNull();
    expect(surveyIndexAfterKey(3, 0, 'End')).toBe(2);
    expect(surveyIndexAfterKey(3, 2, 'Home')).toBe(0);
    expect(surveyIndexAfterKey(3, 1, 'Tab')).toBeNull();
    expect(surveyIndexAfterKey(0, 0, 'End')).toBeNull();
  });
});

describe('SurveyTimeline', () => {
  it('names the newest survey with its date, as one radio group with one tab stop', () => {
    renderIn(<Timeline onChange={() => {}} />);
    const group = screen.getByRole('radiogroup', {
      name: /Imagery surveys: Survey of 3 February 2026 \(newest\)/,
    });
    const radios = within(group).getAllByRole('radio');
    expect(radios.map((radio) => radio.textContent)).toEqual(['2026', '2021', '2019']);
    expect(radios.map((radio) => radio.getAttribute('aria-checked'))).toEqual(['true', 'false', 'false']);
    expect(radios.map((radio) => radio.tabIndex)).toEqual([0, -1, -1]);
    expect(
      screen.getByRole('radio', { name: '14 March 2019, High resolution with obliques, Built-in' }),
    ).toBe(radios[2]);
  });

  it('steps back with the arrow keys and jumps with End and Home, moving the focus', () => {
    const onChange = jest.fn();
    renderIn(<Timeline onChange={onChange} />);
    const radios = () => screen.getAllByRole('radio');
    radios()[0].focus();
    fireEvent.keyDown(radios()[0], { key: 'ArrowRight' });
    expect(onChange).toHaveBeenLastCalledWith(surveys[1]);
    expect(radios()[1].getAttribute('aria-checked')).toBe('true');
    expect(document.activeElement).toBe(radios()[1]);
    expect(screen.getByText(/Survey of 20 August 2021$/)).toBeTruthy();
    fireEvent.keyDown(radios()[1], { key: 'End' });
    expect(onChange).toHaveBeenLastCalledWith(surveys[2]);
    fireEvent.keyDown(radios()[2], { key: 'ArrowDown' });
    expect(onChange).toHaveBeenCalledTimes(2);
    fireEvent.keyDown(radios()[2], { key: 'Home' });
    expect(onChange).toHaveBeenLastCalledWith(surveys[0]);
    fireEvent.click(radios()[1]);
    expect(onChange).toHaveBeenLastCalledWith(surveys[1]);
  });

  it('steps over a survey that may not be chosen', () => {
    const onChange = jest.fn();
    renderIn(
      <SurveyTimeline point={point} surveys={surveys} value={9} onChange={onChange} disabledIds={[7]} />,
    );
    fireEvent.keyDown(screen.getAllByRole('radio')[0], { key: 'ArrowRight' });
    expect(onChange).toHaveBeenCalledWith(surveys[2]);
  });

  it('asks the service for the surveys at the point', async () => {
    global.fetch = jest.fn(async (request: Request) => {
      const url = new URL(request.url);
      expect(url.pathname).toBe(SURVEY_API.surveys);
      expect(url.searchParams.get('lat')).toBe(String(point.lat));
      return new Response(JSON.stringify({ success: true, surveys }), {
        headers: { 'content-type': 'application/json' },
      });
    }) as unknown as typeof fetch;
    renderIn(<SurveyTimeline point={point} value={4} onChange={() => {}} />);
    expect(await screen.findByRole('radiogroup', { name: /Survey of 14 March 2019$/ })).toBeTruthy();
  });
});

describe('CaptureDate', () => {
  it('prints the capture date in words, with the provider when given', () => {
    expect(captureDateText('2019-03-14')).toBe('Captured 14 March 2019');
    expect(captureDateText('2019-03-14', 'Built-in')).toBe('Captured 14 March 2019 · Built-in');
    expect(captureDateText(null)).toBe('Capture date unknown');
    renderIn(<CaptureDate capturedOn="2026-01-01" overlay />);
    expect(screen.getByTestId('capture-date').textContent).toBe('Captured 1 January 2026');
  });
});
