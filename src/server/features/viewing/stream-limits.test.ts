import { describe, expect, it } from 'vitest';
import { createStreamRegistry } from './stream-limits.ts';

describe('the live-update stream registry', () => {
  it('closes the oldest stream of an account beyond its cap, and only that one', () => {
    const registry = createStreamRegistry({ perAccount: 3, perIp: 100 });
    const closed: number[] = [];
    for (let index = 0; index < 5; index++) registry.open('ana', `10.0.0.${index}`, () => closed.push(index));
    expect(closed).toEqual([0, 1]);
    expect(registry.count({ userId: 'ana' })).toBe(3);
  });

  it('closes the oldest stream of an IP beyond its cap, whoever holds it', () => {
    const registry = createStreamRegistry({ perAccount: 5, perIp: 4 });
    const closed: string[] = [];
    for (let index = 0; index < 6; index++)
      registry.open(`user-${index}`, '10.9.9.9', () => closed.push(`user-${index}`));
    expect(closed).toEqual(['user-0', 'user-1']);
    expect(registry.count({ ip: '10.9.9.9' })).toBe(4);
    expect(registry.count({ userId: 'user-0' })).toBe(0);
  });

  it('frees the slot of a stream that ends by itself', () => {
    const registry = createStreamRegistry({ perAccount: 2, perIp: 100 });
    const closed: string[] = [];
    const endFirst = registry.open('ana', '10.0.0.1', () => closed.push('first'));
    registry.open('ana', '10.0.0.1', () => closed.push('second'));
    endFirst();
    registry.open('ana', '10.0.0.1', () => closed.push('third'));
    expect(closed).toEqual([]);
    expect(registry.count({ userId: 'ana' })).toBe(2);
  });
});
