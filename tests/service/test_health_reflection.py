"""Standard health checking and server reflection, so grpcurl and load balancers work."""

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import ProtoReflectionDescriptorDatabase
from google.protobuf.descriptor_pool import DescriptorPool


def test_health_reports_serving_for_the_server_and_each_service(server):
    with grpc.insecure_channel(server.address) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        for service in ("", "hzai.v3.BotService", "hzai.v3.MatchService"):
            reply = stub.Check(health_pb2.HealthCheckRequest(service=service), timeout=10)
            assert reply.status == health_pb2.HealthCheckResponse.SERVING, service
        try:
            stub.Check(health_pb2.HealthCheckRequest(service="hzai.v3.Nothing"), timeout=10)
        except grpc.RpcError as exc:
            assert exc.code() == grpc.StatusCode.NOT_FOUND
        else:
            raise AssertionError("an unknown service must not be reported healthy")


def test_reflection_lists_the_services_and_describes_their_messages(server):
    with grpc.insecure_channel(server.address) as channel:
        database = ProtoReflectionDescriptorDatabase(channel)
        services = set(database.get_services())
        assert {"hzai.v3.BotService", "hzai.v3.MatchService", "grpc.health.v1.Health",
                "grpc.reflection.v1alpha.ServerReflection"} <= services
        pool = DescriptorPool(database)
        bot = pool.FindServiceByName("hzai.v3.BotService")
        assert {m.name for m in bot.methods} == {"ListGames", "SuggestMove", "Analyze", "AnalyzeStream", "AnalyzeGame"}
        assert bot.methods_by_name["AnalyzeGame"].server_streaming
        assert bot.methods_by_name["AnalyzeStream"].server_streaming
        match = pool.FindServiceByName("hzai.v3.MatchService")
        assert {"CreateMatch", "GetView", "ListLegalMoves", "PlayMove", "BotPlayTurn"} <= {m.name for m in match.methods}
        request = pool.FindMessageTypeByName("hzai.v3.SuggestMoveRequest")
        assert {"position", "budget", "seed", "bot", "priority", "level"} == {f.name for f in request.fields}
