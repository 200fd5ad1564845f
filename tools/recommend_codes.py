"""Codes of the recommender: option reasons and warnings, near-miss reasons, assumptions, layouts,
host and interconnect checks, and suggestion outcomes. Rendered by tools/messages/recommend.py.

Params carry units in their names (`needed_gib`, `price_per_hour` + `currency`, `vcpu_per_gpu`);
enum values (billing, grade, region, sharding) are passed as their values.
"""

from __future__ import annotations

from tools.notes import NoteCode


class RecommendCode(NoteCode):
    # ---- why an option was chosen (Option.reasons)
    option_fit = "option.fit"  # nodes, gpu_count, gpu, needed_gib, usable_gib, headroom_gib, layout (note)
    option_price = "option.price"  # price_per_hour, monthly (all nodes × copies), currency, billing, nodes, copies, grade,
    #                                as_of, age (price_age.summary note)
    option_converted = "option.converted"  # from_currency, rate (fx.rate note)
    option_cheaper_spot = "option.cheaper_spot"  # price_per_hour, currency
    option_unpriced = "option.unpriced"
    option_time = "option.time"  # hours, days, gpus, mfu, throughput_tps (tokens/s), job_cost, currency, spot
    option_mainland = "option.mainland"  # region
    option_within_budget = "option.within_budget"  # cost, budget, currency, period
    # ---- warnings on an option (Option.warnings)
    warn_no_bf16 = "warn.no_bf16"  # gpu
    warn_export_fleet = "warn.export_fleet"  # gpu
    warn_pcie_slow = "warn.pcie_slow"  # layout (note)
    warn_vgpu = "warn.vgpu"  # fraction, gpu, usable_gib
    warn_no_time = "warn.no_time"  # error (note)
    # ---- host and interconnect (recommend_host)
    host_thin = "host.thin"  # vcpu_per_gpu, min_vcpu, ram_gb_per_gpu, min_ram_gb (the failing ones; None when fine)
    interconnect = "link.interconnect"  # gpus_linked (nvlink | pcie | None: one GPU), infiniband, network_gbps
    # ---- why not (Rejection.reason; kind in comments)
    reject_export = "reject.export"  # export: gpu, gpu_name
    reject_region = "reject.region"  # region: region
    reject_fit = "reject.fit"  # fit: needed_gib, gpu, usable_gib, short_gib, layout (note)
    reject_fit_error = "reject.fit_error"  # fit: error (note)
    reject_network = "reject.network"  # network: nodes, gpus_per_node, instance
    reject_bf16 = "reject.bf16"  # bf16: gpu
    reject_fp8 = "reject.fp8"  # fp8: gpu
    reject_billing = "reject.billing"  # billing: billing, listed (billing values)
    reject_budget = "reject.budget"  # budget: cost, budget, currency, period, over_fraction
    reject_pcie = "reject.pcie"  # pcie: layout (note)
    reject_deadline = "reject.deadline"  # deadline: hours, deadline_hours, over_fraction
    reject_deadline_untimed = "reject.deadline_untimed"  # deadline: error (note), deadline_hours
    reject_pcie_serving = "reject.pcie_serving"  # pcie: layout (note)
    # ---- how the job is spread (Plan.how, Option.layout); single_gpu_gib = why one GPU is not enough
    layout_one_gpu = "layout.one_gpu"
    layout_need_one_gpu = "layout.need_one_gpu"  # a raw memory need on one GPU
    layout_need_replicated = "layout.need_replicated"  # gpus
    layout_need_split = "layout.need_split"  # needed_gib, gpus
    layout_user = "layout.user"  # sharding, tp, pp, gpus
    layout_replicas = "layout.replicas"  # gpus, training
    layout_zero3 = "layout.zero3"  # gpus, single_gpu_gib
    layout_tensor_parallel = "layout.tensor_parallel"  # tp, pp, gpus, single_gpu_gib
    # ---- assumptions (Recommendation.assumptions)
    skipped_unknown_gpu = "rec.skipped_unknown_gpu"  # instances
    currency_default = "rec.currency_default"  # currency, region
    gpus_ignored = "rec.gpus_ignored"
    billing_default = "rec.billing_default"
    monthly_hours = "rec.monthly_hours"  # hours
    no_time_inference = "rec.no_time_inference"
    spot_rework = "rec.spot_rework"  # interruptions_per_day, checkpoint_hours, restart_hours
    job_start = "rec.job_start"  # hours: a job's cost includes one paid start (boot, environment, loading the model)
    converted = "rec.converted"  # rate (fx.rate note)
    region_cn = "rec.region_cn"
    unpriced_last = "rec.unpriced_last"
    multi_node = "rec.multi_node"
    multi_node_deadline = "rec.multi_node_deadline"  # deadline_hours: one machine holds the job, but not in time
    # ---- suggestion outcomes (Suggestion.outcome); best/also are suggest.option notes
    suggest_option = "suggest.option"  # provider, instance, nodes, gpu_count, gpu, needed_gib, cost, currency, period
    suggest_raise_budget = "suggest.raise_budget"  # best
    suggest_fits = "suggest.fits"  # options, budget (bool), best
    suggest_over_budget = "suggest.over_budget"  # budget, currency, best, also (or None)
    suggest_fits_on = "suggest.fits_on"  # best
    suggest_none = "suggest.none"  # tried (ChangeKind values)


class RankCode(NoteCode):
    """How options are ranked and priced: billing compared, budget, band reorders, price age (issue 12)."""

    # ---- on an option (Option.reasons)
    billing_chosen = "rank.billing_chosen"  # billing, period (the need: job|month|hour), cost, currency, compared (rank.billing_cost)
    billing_cost = "rank.billing_cost"  # billing, cost, currency, period
    band = "rank.band"  # provider, instance, gpu_count, gpu, nodes (the cheaper option ranked below), cheaper_fraction,
    #                     factor (fit|freshness|grade|sooner|size)
    over_budget = "rank.over_budget"  # cost, budget, currency, period, over_fraction (the cheapest priced, shown because none fits)
    spot_only = "rank.spot_only"  # (warning) the only price listed is spot: it can be interrupted
    # ---- on the recommendation (Recommendation.notices / assumptions)
    no_price_in_billing = "rank.no_price_in_billing"  # billing, instances (fit but priced only in other modes), unpriced
    none_within_budget = "rank.none_within_budget"  # budget, currency, period, provider, instance, gpu_count, gpu, nodes,
    #                                                 cost, over_fraction
    basis = "rank.basis"  # need (job|month|hour), band_fraction, headroom_fraction, mainland_first, mainland_last (bools)
    fit_problems = "rank.fit_problems"  # problems: [memory | interconnect | host | software | interruption]


class SoftwareCode(NoteCode):
    """Software support as fit conditions (knowledge/catalog/support/software.yaml rules, by key)."""

    reject = "software.reject"  # rule (rule key), gpu, cc (None: not CUDA), stack, unless_named (bool)
    warn = "software.warn"  # rule (rule key), gpu, cc, stack
    reject_fractional = "software.reject_fractional"  # fraction, gpu, training (bool; False: the serving estimate needs whole GPUs)


class ServeRecCode(NoteCode):
    """Serving-aware recommendations (recommend --mode inference with a load)."""

    option = "serve_rec.option"  # weights, output_tok_s, ttft_ms, tpot_ms, tokens_per_user_s, max_concurrency, copies,
    #                              cost_per_million_output_tokens_at_load (None: unpriced), currency
    layout = "serve_rec.layout"  # copies, gpus (per copy), tp, pp, nodes, replicas (per copy)
    variant = "serve_rec.variant"  # weights, cost, base_cost (None: no bf16 option), currency, period
    reject_weights = "serve_rec.reject_weights"  # weights, weights_gib (all GPUs), usable_gib (all GPUs), gpus, gpu
    reject_kv = "serve_rec.reject_kv"  # concurrency, max_concurrency, copies
    reject_kv_margin = "serve_rec.reject_kv_margin"  # needed (load + margin, sequences), max_concurrency, margin_fraction, copies
    reject_saturated = "serve_rec.reject_saturated"  # request_rate_req_s, max_req_s, copies
    reject_targets = "serve_rec.reject_targets"  # ttft_ms, target_ms, tokens_per_user_s, target_tok_s (None: not set), copies
    basis = "serve_rec.basis"  # max_gpus, margin_fraction (KV sequences beyond the load)
    variants = "serve_rec.variants"  # formats (WeightFormat values)


class RecommendError(NoteCode):
    """Bad recommender input (InputError notes)."""

    serving_needs_inference = "error.rec.serving_needs_inference"  # mode
    serving_needs_model = "error.rec.serving_needs_model"
    serving_one_load = "error.rec.serving_one_load"  # given (field names)
    serving_peak_factor = "error.rec.serving_peak_factor"
