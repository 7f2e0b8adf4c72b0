/** The JSON body of every error answer. `issues` lists field problems for a 400. */
export interface ErrorBody {
  message: string;
  issues?: Array<{ path: string; message: string }>;
}
