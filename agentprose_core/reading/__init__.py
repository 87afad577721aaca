"""Reading published outputs back: views, ``llms.txt`` and head links as text, and the
same-origin HTTP transport, for ``agentprose check`` and ``agentprose mcp`` alike."""
