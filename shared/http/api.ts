/** The JSON body of every 4xx/5xx answer of /api/*. */
export interface ApiErrorBody {
  error: {
    code: string;
    message: string;
    /** Field name to messages, where a form can show them next to the field. */
    fields?: Record<string, string[]>;
  };
}
