"""The Gradio chat web app (`gpu-advisor serve`): presentation over `assistant.Advisor`, nothing else."""
