"""The Anno 1503 AI's part for the Pirates & Aristocrats expansion:
``sample`` (the hidden expansion parts of a view filled in), ``evaluate``
(the heuristic value with six goals) and ``policy`` (battle answers and
lair fights scored by their odds); ``hooks`` answers the AI's variant hooks
(``variant.BaseAI``) with them."""
