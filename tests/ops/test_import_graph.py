"""No import circle in the project's packages, function-level imports
included: grimp reads every import statement, wherever it stands, so an
import moved into a function to dodge a circle still counts as one."""

import grimp

PACKAGES = ("engine", "service", "launcher", "tabula_env", "tabula_client")


def _import_graph(*packages, type_checking=False):
    # Imports under `if TYPE_CHECKING:` never run: annotations may refer back
    # (unless type_checking asks for them too).
    graph = grimp.build_graph(*packages, exclude_type_checking_imports=not type_checking, cache_dir=None)
    return {
        module: set(graph.find_modules_directly_imported_by(module)) & graph.modules
        for module in graph.modules
    }


def strongly_connected(edges):
    """Tarjan's components of more than one module (iterative: deep graphs)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(edges[child]))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return found


def test_no_import_circle():
    assert strongly_connected(_import_graph(*PACKAGES)) == []


def test_no_import_circle_in_the_client_even_for_type_checkers():
    """The client is read by its users' type checkers: no circle there either."""
    assert strongly_connected(_import_graph("tabula_client", type_checking=True)) == []


def test_a_circle_is_found():
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert strongly_connected(edges) == [["a", "b", "c"]]
