"""What to rent: the recommendation answer (the plan and composition are `rental`'s), with the verdict on the
user's own hardware first when they asked whether it is enough (`extras.check_lead`).

Hardware withdrawn only if it falls short ("if the A10G can't fit it, drop the GPU requirement") is checked first;
where it holds the job the condition is false and the requirement stands, so a second round rents that GPU
(`follow_up`, key ``rec_held``) and the answer shows it in place of the unbound pick."""

from __future__ import annotations

from assistant.offline.blocks import Composition, Lead, Para
from assistant.offline.context import TurnContext
from assistant.offline.handlers.base import AnswerCode, Cited, Env, Outcome, Plan, Results
from assistant.offline.handlers.extras import check_lead, plan_extras, result_targets
from assistant.offline.handlers.rental import compose_recommendation, recommend_plan
from assistant.understand.slots import Frame
from tools.notes import Note

SERVING_LOAD_SLOTS = ("users", "concurrency", "requests_per_day", "request_rate")


class RecommendHandler:
    frame = Frame.recommend

    def plan(self, ctx: TurnContext, env: Env) -> Plan:
        plan = Plan()
        owned = bool(ctx.get("owned") and ctx.gpus)
        # an inference workload with a stated load ("for a team of 10", "每天 10 万次请求") is a deployment to size
        # for that load, whichever frame the question came in: the pick then carries it, with tokens/s and cost per token
        serving = not ctx.training and any(ctx.has(k) for k in SERVING_LOAD_SLOTS)
        recommend_plan(ctx, plan, hardware=not owned, serving=serving)  # a GPU the user owns is checked, not rented
        plan_extras(ctx, plan)
        return plan

    def follow_up(self, ctx: TurnContext, plan: Plan, results: Results, env: Env) -> None:
        held = ctx.held.get("gpus")
        rec = next((c for c in plan.calls if c.key == "rec"), None)
        targets = result_targets(results, "check")
        # the user's own hardware that holds the job needs no rental of itself ("if they can't, forget my L4s")
        if held and not ctx.held.get("owned") and rec is not None and len(targets) == 1 and targets[0].get("fits"):
            args = {**rec.args, "gpu": held[0]}
            if ctx.held.get("gpu_count"):
                args["max_gpus"] = int(ctx.held["gpu_count"])
            plan.call("recommend_config", "rec_held", **args)

    def compose(self, ctx: TurnContext, plan: Plan, results: Results, cited: Cited, env: Env) -> Composition:
        held = results.get("rec_held")
        failed: list = []
        if held is not None and not held.error and held.result.get("options"):
            # the held GPU holds the job: what to rent is that GPU (the unbound pick is not shown)
            results = Results([Outcome(o.name, "rec", o.args, o.result, o.artifact) if o is held else o
                               for o in results.outcomes if o.key != "rec"])
            plan.data.setdefault("unshown", []).append("rec")
        elif held is not None:
            # no offer of the held GPU (or the call failed): the unbound pick is shown, and the answer's structured
            # pick must be that one, not the empty or failed result
            plan.data.setdefault("unshown", []).append("rec_held")
            if held.error:
                failed = [held.error_note or Note.of(AnswerCode.tool_error, error=held.error)]
        out = compose_recommendation(ctx, plan, results, cited, env)
        if failed:
            out.blocks[0:0] = [Para(failed)]
        verdict = check_lead(ctx, results, env)
        if verdict:  # "is my 24 GB enough?" is answered before what to rent
            out.blocks[0:0] = [Lead(verdict[:1]), Para(verdict[1:])]
        return out
