import { createServer, type ServerOptions } from 'node:http';
import type { FastifyServerFactory } from 'fastify';
import type { HandOverLane } from './features/media/media-hand-over-lane.ts';

/**
 * Fastify's own server, as it makes one without a factory, with the media hand-over lane in front of its handler
 * (decision 021). The lane is read at each request: it exists only once the media routes are registered.
 */
export function serverWithLane(lane: () => HandOverLane | null): FastifyServerFactory {
  return (handler, factoryOptions) => {
    // Fastify passes its options with its defaults filled in
    const options = factoryOptions as {
      http?: ServerOptions;
      keepAliveTimeout: number;
      requestTimeout: number;
      connectionTimeout: number;
      maxRequestsPerSocket: number;
    };
    const server = createServer(options.http ?? {}, (request, response) => {
      if (!lane()?.(request, response)) handler(request, response);
    });
    server.keepAliveTimeout = options.keepAliveTimeout;
    server.requestTimeout = options.requestTimeout;
    server.setTimeout(options.connectionTimeout);
    if (options.maxRequestsPerSocket > 0) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
    return server;
  };
}
