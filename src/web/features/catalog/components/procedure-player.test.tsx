// @vitest-environment jsdom
import { act, screen, waitFor } from '@testing-library/react';
import { createRef, useState } from 'react';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '#web/testing/render.tsx';
import type { PlayRequest } from './procedure-video.tsx';

// the real player is Vidstack with hls.js: what matters here is when it loads and what it is asked to do
const player = vi.hoisted(() => ({
  loads: 0,
  hlsLoads: 0,
  requests: [] as PlayRequest[],
  props: null as Record<string, unknown> | null,
}));
vi.mock('./procedure-video.tsx', () => {
  player.loads += 1;
  return {
    ProcedureVideo: (props: Record<string, unknown> & { request: PlayRequest }) => {
      player.props = props;
      if (player.requests.at(-1) !== props.request) player.requests.push(props.request);
      return <div role="region" aria-label="Reproductor" />;
    },
  };
});
vi.mock('hls.js/light', () => {
  player.hlsLoads += 1;
  return { default: class FakeHls {} };
});

const { ProcedurePlayer } = await import('./procedure-player.tsx');

// a prefetch a test started (focus, pointer) may still be loading when the file ends; once the mocks and jsdom are
// gone it would load the real Vidstack, which reads localStorage at import and fails the run with an unhandled error.
// Awaited here, under the mocks, any such import resolves to the fakes before the file ends. That was not enough: a
// second import of a mocked module while the first is still loading can get the original (vitest-dev/vitest#7040),
// and a fresh-clone CI again evaluated the real Vidstack after jsdom had gone. Vidstack itself is imported here too,
// while jsdom's localStorage exists: an import of it still loading is awaited, and a later one finds it in Node's
// module cache.
afterAll(async () => {
  await Promise.all([import('./procedure-video.tsx'), import('hls.js/light')]);
  await Promise.all([import('@vidstack/react'), import('@vidstack/react/player/layouts/default')]);
});
type Controls = import('./procedure-player.tsx').PlayerControls;

const chapters = [
  { name: 'Abordaje', timeSeconds: 0 },
  { name: 'Cierre', timeSeconds: 75 },
];

function renderPlayer(props: { hlsSrc?: string; controlsRef?: React.Ref<Controls> } = {}) {
  return renderWithApp(
    <ProcedurePlayer
      src="/media/p/demo.mp4"
      poster="/media/p/preview.jpg"
      title="Cesárea en perra"
      chapters={chapters}
      {...props}
    />,
  );
}

beforeEach(() => {
  player.requests = [];
  player.props = null;
});

describe('the procedure player', () => {
  it('shows the poster and a play button in the player box, and loads neither the player nor hls.js before the person plays', async () => {
    const { container } = renderPlayer({ hlsSrc: '/media/hls/p/master.m3u8' });
    expect(screen.getByRole('button', { name: 'Reproducir' })).toBeTruthy();
    expect(container.querySelector('img')?.getAttribute('src')).toBe('/media/p/preview.jpg');
    expect(container.querySelector('img')?.getAttribute('fetchpriority')).toBe('high');
    expect(screen.getByRole('switch', { name: /Ahorro de datos/ })).toBeTruthy();
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    expect(player.loads).toBe(0);
    expect(player.hlsLoads).toBe(0);
    expect(screen.queryByRole('region', { name: 'Reproductor' })).toBeNull();
  });

  it('mounts the player on Reproducir from the keyboard, playing from where the video is and taking the focus, with hls.js for a ladder', async () => {
    const { user } = renderPlayer({ hlsSrc: '/media/hls/p/master.m3u8' });
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Reproducir' }));
    await user.keyboard('{Enter}');
    await screen.findByRole('region', { name: 'Reproductor' });
    expect(screen.queryByRole('button', { name: 'Reproducir' })).toBeNull();
    expect(player.requests).toEqual([{ at: null, focus: true }]);
    expect(player.props?.hls).toBeTypeOf('function');
    expect(player.props?.hlsSrc).toBe('/media/hls/p/master.m3u8');
  });

  it('a chapter pressed before playing mounts the player at its time, and the next one seeks the mounted player; the focus stays on the list', async () => {
    const { user } = renderPlayer();
    await user.click(screen.getByRole('button', { name: /Cierre/ }));
    await screen.findByRole('region', { name: 'Reproductor' });
    expect(player.requests).toEqual([{ at: 75, focus: false }]);
    await user.click(screen.getByRole('button', { name: /Abordaje/ }));
    await waitFor(() =>
      expect(player.requests).toEqual([
        { at: 75, focus: false },
        { at: 0, focus: false },
      ]),
    );
  });

  it('keeps playing the file when a ladder turns up while the player is on, and takes the ladder before it is', async () => {
    let offerLadder = (_hlsSrc: string) => {};
    function Page() {
      const [hlsSrc, setHlsSrc] = useState<string | undefined>();
      offerLadder = setHlsSrc;
      return <ProcedurePlayer src="/media/p/demo.mp4" hlsSrc={hlsSrc} title="Cesárea en perra" chapters={chapters} />;
    }
    const { user } = renderWithApp(<Page />);
    await user.click(screen.getByRole('button', { name: 'Reproducir' }));
    const mounted = await screen.findByRole('region', { name: 'Reproductor' });
    act(() => offerLadder('/media/hls/p/master.m3u8'));
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    expect(screen.getByRole('region', { name: 'Reproductor' })).toBe(mounted);
    expect(player.props?.hlsSrc).toBeNull();
    expect(player.requests).toEqual([{ at: null, focus: true }]);

    // before anyone plays, the ladder is taken at once (the data-saver switch comes with it)
    const before = renderWithApp(<Page />);
    expect(before.queryAllByRole('switch')).toEqual([]);
    act(() => offerLadder('/media/hls/p/master.m3u8'));
    expect(await before.findByRole('switch', { name: /Ahorro de datos/ })).toBeTruthy();
  });

  it('lets the page resume before the player exists: playFrom mounts it there and moves the focus into it', async () => {
    const controls = createRef<Controls>();
    renderPlayer({ controlsRef: controls });
    act(() => controls.current!.playFrom(30));
    await screen.findByRole('region', { name: 'Reproductor' });
    expect(player.requests).toEqual([{ at: 30, focus: true }]);
    expect(player.props?.hls).toBeUndefined();
  });
});
