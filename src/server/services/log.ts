/**
 * The logger a service is given: the app's pino logger (app.log) in production, a stub or a pick of it in
 * tests. A service that needs fewer levels takes Pick<Log, ...>.
 */
export type Log = {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
};
