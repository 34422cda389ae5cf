"""Agent inspector panels: one module per tab, drawn with the shared row widgets."""
