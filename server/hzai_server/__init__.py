"""The hzai gRPC service: BotService (suggest, analyze) and MatchService (hosted games).

    hzai-server --address 127.0.0.1:50051        # or: python -m hzai_server

Protobuf types stay at the edge: `hzai_server.convert` is the only module that turns
messages into library objects and back.
"""

__version__ = "0.1.0"
