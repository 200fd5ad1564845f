"""What to rent: the recommendation answer (the plan and composition are `rental`'s), with the verdict on the
user's own hardware first when they asked whether it is enough (`extras.check_lead`)."""

from __future__ import annotations

from assistant.offline.blocks import Composition, Lead, Para
from assistant.offline.context import TurnContext
from assistant.offline.handlers.base import Cited, Env, Plan, Results
from assistant.offline.handlers.extras import check_lead, plan_extras
from assistant.offline.handlers.rental import compose_recommendation, recommend_plan
from assistant.understand.slots import Frame


class RecommendHandler:
    frame = Frame.recommend

    def plan(self, ctx: TurnContext, env: Env) -> Plan:
        plan = Plan()
        owned = bool(ctx.get("owned") and ctx.gpus)
        recommend_plan(ctx, plan, hardware=not owned)  # a GPU the user owns is checked, not rented
        plan_extras(ctx, plan)
        return plan

    def compose(self, ctx: TurnContext, plan: Plan, results: Results, cited: Cited, env: Env) -> Composition:
        out = compose_recommendation(ctx, plan, results, cited, env)
        verdict = check_lead(ctx, results, env)
        if verdict:  # "is my 24 GB enough?" is answered before what to rent
            out.blocks[0:0] = [Lead(verdict[:1]), Para(verdict[1:])]
        return out
