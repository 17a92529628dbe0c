"""Plays the kubelet against a dra4j plugin with Python's gRPC (C core), not grpc-java.

Message classes are built at run time from the FileDescriptorSet of dra4j's own protos, which the
Java test writes; that proves the wire format with a second gRPC and protobuf implementation.
Usage: kubelet_client.py DESCRIPTORS REGISTRY_DIR NAMESPACE NAME UID
Prints one JSON object with what the plugin answered.
"""
import json
import os
import stat
import sys

import grpc
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory


def load_pool(path):
    files = descriptor_pb2.FileDescriptorSet()
    with open(path, "rb") as f:
        files.ParseFromString(f.read())
    pool = descriptor_pool.DescriptorPool()
    for proto in files.file:
        pool.AddSerializedFile(proto.SerializeToString())
    return pool


def message_class(pool, full_name):
    descriptor = pool.FindMessageTypeByName(full_name)
    if hasattr(message_factory, "GetMessageClass"):
        return message_factory.GetMessageClass(descriptor)
    return message_factory.MessageFactory(pool).GetPrototype(descriptor)


def discover(directory):
    found = []
    for name in sorted(os.listdir(directory)):
        path = os.path.join(directory, name)
        if not name.startswith(".") and stat.S_ISSOCK(os.lstat(path).st_mode):
            found.append(path)
    return found


def unary(channel, method, request, response_type, timeout):
    call = channel.unary_unary(
        method,
        request_serializer=lambda m: m.SerializeToString(),
        response_deserializer=response_type.FromString,
    )
    return call(request, timeout=timeout)


def first_health_message(channel, package, pool):
    request = message_class(pool, package + ".NodeWatchResourcesRequest")()
    response_type = message_class(pool, package + ".NodeWatchResourcesResponse")
    stream = channel.unary_stream(
        "/" + package + ".DRAResourceHealth/NodeWatchResources",
        request_serializer=lambda m: m.SerializeToString(),
        response_deserializer=response_type.FromString,
    )(request, timeout=10)
    first = next(iter(stream))
    stream.cancel()
    return [
        {"pool": d.device.pool_name, "device": d.device.device_name, "health": int(d.health)}
        for d in first.devices
    ]


def prepare(channel, pool, package, namespace, name, uid):
    request = message_class(pool, package + ".NodePrepareResourcesRequest")()
    claim = request.claims.add()
    claim.namespace, claim.name, claim.uid = namespace, name, uid
    response = unary(
        channel,
        "/" + package + ".DRAPlugin/NodePrepareResources",
        request,
        message_class(pool, package + ".NodePrepareResourcesResponse"),
        45,
    )
    answer = response.claims[uid]
    devices = []
    for d in answer.devices:
        entry = {
            "pool": d.pool_name,
            "device": d.device_name,
            "cdi": list(d.cdi_device_ids),
            "requests": list(d.request_names),
        }
        if "share_id" in d.DESCRIPTOR.fields_by_name:
            entry["hasShareId"] = d.HasField("share_id")
        devices.append(entry)
    return {"error": answer.error, "devices": devices}


def main():
    descriptors, registry, namespace, name, uid = sys.argv[1:6]
    pool = load_pool(descriptors)
    result = {"grpcVersion": grpc.__version__}
    sockets = discover(registry)
    result["sockets"] = sockets
    with grpc.insecure_channel("unix:" + sockets[0]) as registration:
        info = unary(
            registration,
            "/pluginregistration.Registration/GetInfo",
            message_class(pool, "pluginregistration.InfoRequest")(),
            message_class(pool, "pluginregistration.PluginInfo"),
            1,
        )
        result["info"] = {
            "type": info.type,
            "name": info.name,
            "endpoint": info.endpoint,
            "versions": list(info.supported_versions),
        }
        status = message_class(pool, "pluginregistration.RegistrationStatus")()
        status.plugin_registered = True
        unary(
            registration,
            "/pluginregistration.Registration/NotifyRegistrationStatus",
            status,
            message_class(pool, "pluginregistration.RegistrationStatusResponse"),
            5,
        )
    with grpc.insecure_channel("unix:" + info.endpoint) as dra:
        result["v1"] = prepare(dra, pool, "k8s.io.kubelet.pkg.apis.dra.v1", namespace, name, uid)
        result["v1beta1"] = prepare(
            dra, pool, "k8s.io.kubelet.pkg.apis.dra.v1beta1", namespace, name, uid)
        request = message_class(pool, "k8s.io.kubelet.pkg.apis.dra.v1.NodeUnprepareResourcesRequest")()
        claim = request.claims.add()
        claim.namespace, claim.name, claim.uid = namespace, name, uid
        unprepared = unary(
            dra,
            "/k8s.io.kubelet.pkg.apis.dra.v1.DRAPlugin/NodeUnprepareResources",
            request,
            message_class(pool, "k8s.io.kubelet.pkg.apis.dra.v1.NodeUnprepareResourcesResponse"),
            45,
        )
        result["unprepareError"] = unprepared.claims[uid].error
        result["healthV1"] = first_health_message(dra, "v1", pool)
        result["healthV1alpha1"] = first_health_message(dra, "v1alpha1", pool)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
