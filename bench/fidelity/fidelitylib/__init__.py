"""The fidelity benchmark's measuring code (run by ``bench/fidelity.py``).

Nothing here imports the converter: the reference is read from the HTML with lxml
and the agent views with markdown-it, so the figures measure agentprose from outside.
"""
