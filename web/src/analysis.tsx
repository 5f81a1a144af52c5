/**
 * The replay page's analysis: the player picks a seat, the server works out in the background
 * what the strongest bot would have played at each of that seat's decisions (from that seat's
 * view only) and the match points each move lost; a progress bar shows how far it has got.
 */
import { useEffect, useState } from "preact/hooks";
import { ApiError } from "./api";
import { t } from "./i18n";
import { errorText } from "./lobby";
import { moveText } from "./replay";

export interface AnalysisMark {
  index: number;
  phase: string;
  played: string;
  best: string;
  loss: number;
  gain: number;
  se: number;
  samples: number;
}

export interface AnalysisJob {
  status: "running" | "done" | "failed";
  seat: number;
  done: number;
  total: number;
  decisions?: AnalysisMark[];
  total_loss?: number;
  error?: string;
}

async function analysisCall(method: "GET" | "POST", tableId: string, hand: number, seat: number,
  token: string | null): Promise<AnalysisJob> {
  const query = new URLSearchParams({ seat: String(seat), ...(token ? { token } : {}) });
  let response: Response;
  try {
    response = await fetch(`/api/web/tables/${encodeURIComponent(tableId)}/hands/${hand}/analysis?${query}`, { method });
  } catch {
    throw new ApiError(0, "network", "network");
  }
  const data = await response.json();
  if (!response.ok) throw new ApiError(response.status, data.code ?? "error", data.detail ?? "");
  return data as AnalysisJob;
}

export function AnalysisPanel(props: {
  tableId: string; hand: number; token: string | null; players: number;
  names: (seat: number) => string; step: number; setStep: (n: number) => void;
}) {
  const { tableId, hand, token, players, names } = props;
  const [seat, setSeat] = useState(0);
  const [job, setJob] = useState<AnalysisJob | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => { setJob(null); setError(null); }, [hand, seat]);

  useEffect(() => {
    if (!job || job.status !== "running") return;
    const timer = setTimeout(() => {
      analysisCall("GET", tableId, hand, seat, token).then(setJob).catch((err) => setError(errorText(err)));
    }, 600);
    return () => clearTimeout(timer);
  }, [job]);

  const start = () => {
    setError(null);
    analysisCall("POST", tableId, hand, seat, token).then(setJob).catch((err) => setError(errorText(err)));
  };

  const marked = (job?.decisions ?? []).filter((d) => d.loss > 0);
  return (
    <section class="panel analysis" data-testid="analysis">
      <h2>{t("analysis.title")}</h2>
      <p>{t("analysis.text")}</p>
      <div class="analysis-controls">
        <label>{t("analysis.seat")}{" "}
          <select value={seat} onChange={(e) => setSeat(Number((e.target as HTMLSelectElement).value))} data-testid="analysis-seat">
            {Array.from({ length: players }, (_, s) => <option value={s}>{names(s)}</option>)}
          </select>
        </label>{" "}
        <button type="button" data-testid="analysis-start" onClick={start} disabled={job?.status === "running"}>
          {t("analysis.start")}
        </button>
      </div>
      {error && <p class="error" role="alert">{error}</p>}
      {job && job.status === "running" && (
        <p data-testid="analysis-progress">
          <progress value={job.done} max={Math.max(1, job.total)} />{" "}
          {t("analysis.progress", { done: job.done, total: job.total })}
        </p>
      )}
      {job && job.status === "failed" && <p class="error" role="alert">{t("analysis.failed", { reason: job.error ?? "" })}</p>}
      {job && job.status === "done" && (
        <>
          <p data-testid="analysis-summary">
            {t("analysis.summary", { n: job.total, marked: marked.length, loss: Math.round(job.total_loss ?? 0) })}
          </p>
          <ol class="analysis-marks">
            {marked.map((d) => (
              <li class={props.step === d.index + 1 ? "on" : ""} data-move={d.index + 1}>
                <button type="button" class="link" onClick={() => props.setStep(d.index + 1)}>
                  {t("analysis.move", { i: d.index + 1 })}
                </button>{" "}
                {t("analysis.mark", { played: moveText(d.played), best: moveText(d.best), loss: Math.round(d.loss) })}
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
