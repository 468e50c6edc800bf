import { describe, expect, it, vi } from 'vitest';
import { createWorkerSupervisor, WorkerLostError, type WorkerConnection } from './worker-client';

interface FakeRemote {
  readonly id: number;
  answer(): Promise<string>;
}

/** A connection whose loss the test decides; `answer` never settles unless told, like a dead worker. */
function fakeConnections() {
  const made: {
    connection: WorkerConnection<FakeRemote>;
    lose: (reason: string) => void;
    reply: (text: string) => void;
    terminate: ReturnType<typeof vi.fn>;
  }[] = [];
  const connect = (): WorkerConnection<FakeRemote> => {
    let lose: (reason: string) => void = () => undefined;
    let reply: (text: string) => void = () => undefined;
    const lost = new Promise<string>((resolve) => (lose = resolve));
    const terminate = vi.fn(() => lose('it was restarted'));
    const id = made.length;
    const connection = {
      remote: { id, answer: () => new Promise<string>((resolve) => (reply = resolve)) },
      lost,
      terminate,
    };
    made.push({ connection, lose: (reason) => lose(reason), reply: (text) => reply(text), terminate });
    return connection;
  };
  return { made, connect };
}

describe('createWorkerSupervisor', () => {
  it('passes calls to the current worker and their answers back', async () => {
    const { made, connect } = fakeConnections();
    const supervisor = createWorkerSupervisor(connect, () => undefined);
    const pending = supervisor.call((remote) => remote.answer());
    made[0]?.reply('compiled');
    await expect(pending).resolves.toBe('compiled');
  });

  it('rejects a call waiting on a worker that ends, and any call made after, and reports the loss once', async () => {
    const { made, connect } = fakeConnections();
    const onLost = vi.fn();
    const supervisor = createWorkerSupervisor(connect, onLost);
    const pending = supervisor.call((remote) => remote.answer());
    made[0]?.lose('it was ended by the browser or crashed');
    await expect(pending).rejects.toEqual(new WorkerLostError('it was ended by the browser or crashed'));
    await expect(supervisor.call((remote) => remote.answer())).rejects.toBeInstanceOf(WorkerLostError);
    expect(onLost).toHaveBeenCalledTimes(1);
    expect(onLost).toHaveBeenCalledWith('it was ended by the browser or crashed');
  });

  it('a restart ends the old worker without reporting it lost, and later calls go to the new one', async () => {
    const { made, connect } = fakeConnections();
    const onLost = vi.fn();
    const supervisor = createWorkerSupervisor(connect, onLost);
    const waiting = supervisor.call((remote) => remote.answer());
    supervisor.restart();
    expect(made[0]?.terminate).toHaveBeenCalled();
    await expect(waiting).rejects.toThrow('The compiler stopped: it was restarted');
    const id = supervisor.call(async (remote) => remote.id);
    await expect(id).resolves.toBe(1);
    // A late loss of the replaced worker is old news.
    made[0]?.lose('late');
    await Promise.resolve();
    expect(onLost).not.toHaveBeenCalled();
  });

  it('a call that throws before it is sent is a rejected call', async () => {
    const { connect } = fakeConnections();
    const supervisor = createWorkerSupervisor(connect, () => undefined);
    await expect(
      supervisor.call(() => {
        throw new DOMException('could not be cloned', 'DataCloneError');
      }),
    ).rejects.toThrow('could not be cloned');
  });
});
