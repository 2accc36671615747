"""hzai.v1 messages and service stubs (generated; see hzai_proto.generate)."""

from hzai_proto.v1 import bot_pb2, bot_pb2_grpc, game_pb2, game_pb2_grpc, match_pb2, match_pb2_grpc

__all__ = ["bot_pb2", "bot_pb2_grpc", "game_pb2", "game_pb2_grpc", "match_pb2", "match_pb2_grpc"]
