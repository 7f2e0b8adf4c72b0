/** The JSON body of every error answer. `issues` lists field problems for a 400. */
export interface ErrorBody {
  message: string;
  /** What a client branches on where one status has several meanings (an access code wanted, a video withdrawn). */
  code?: string;
  issues?: Array<{ path: string; message: string }>;
}
