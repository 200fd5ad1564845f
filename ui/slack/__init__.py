"""The Slack bot (`gpu-advisor slack`): Bolt adapter over `assistant.Advisor`, one conversation per thread."""
